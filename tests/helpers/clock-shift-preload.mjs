// A wrong clock for one server process, for the clock-jump fault test only (loaded with
// NODE_OPTIONS=--import; nothing in the app refers to it). The file FAULT_CLOCK_OFFSET_FILE holds a
// number of milliseconds (absent, empty or unreadable: 0); `Date.now()` and `new Date()` answer the
// real time plus that offset, as on a machine whose clock was set wrong or jumped. Writing the file
// moves the clock; the process reads it again at most every 50 ms of real (monotonic) time.
//
// Everything that takes the time from `Date` follows: the app, its logs and, on the embedded
// database, PGlite's `now()` (the WebAssembly build's clock is `Date.now()`), so on PGlite the
// database's clock jumps with the process, as on one machine. PostgreSQL's clock stays right. Timers
// (`setTimeout`) and `performance.now()` are monotonic and unaffected, as with a real clock jump.
import fs from "node:fs";
import { performance } from "node:perf_hooks";
import process from "node:process";

const file = process.env.FAULT_CLOCK_OFFSET_FILE;

if (file) {
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  let offset = 0;
  let readAt = -Infinity;
  const currentOffset = () => {
    const at = performance.now();
    if (at - readAt >= 50) {
      readAt = at;
      try {
        const value = Number(fs.readFileSync(file, "utf8").trim() || 0);
        offset = Number.isFinite(value) ? value : 0;
      } catch {
        offset = 0;
      }
    }
    return offset;
  };
  const shiftedNow = () => realNow() + currentOffset();
  globalThis.Date = new Proxy(RealDate, {
    // `new Date()` is now; `new Date(value)` is that value, untouched.
    construct: (target, args, newTarget) => Reflect.construct(target, args.length === 0 ? [shiftedNow()] : args, newTarget),
    // `Date()` called as a function answers the current time as a string.
    apply: () => new RealDate(shiftedNow()).toString(),
    get: (target, property, receiver) => (property === "now" ? shiftedNow : Reflect.get(target, property, receiver)),
  });
}
