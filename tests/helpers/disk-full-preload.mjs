// A full disk for one server process, for the disk-full fault test only (loaded with
// NODE_OPTIONS=--import; nothing in the app refers to it). The file FAULT_DISK_FULL_FLAG lists the
// directories that are full, one a line (absent or empty: none). Every write to a file under one of
// them fails with the kernel's own ENOSPC error: the same write goes to /dev/full instead, which
// always answers ENOSPC. Emptying the file is "space returns". No root, loop mount or tmpfs needed,
// and the error is the one a full disk raises (code, errno, syscall); only its path is /dev/full.
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import path from "node:path";
import process from "node:process";

const flag = process.env.FAULT_DISK_FULL_FLAG;

if (flag) {
  const original = {
    openSync: fs.openSync,
    closeSync: fs.closeSync,
    writeSync: fs.writeSync,
    writeFileSync: fs.writeFileSync,
    readFileSync: fs.readFileSync,
    createWriteStream: fs.createWriteStream,
    writeFile: fs.promises.writeFile,
  };
  /** The directories full right now. */
  const fullDirs = () => {
    let text = "";
    try {
      text = original.readFileSync(flag, "utf8");
    } catch {
      return [];
    }
    return text
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean)
      .map((dir) => path.resolve(dir) + path.sep);
  };
  const isFull = (file) => typeof file === "string" && fullDirs().some((dir) => path.resolve(file).startsWith(dir));
  /** The kernel's ENOSPC. */
  const enospc = () => {
    try {
      original.writeFileSync("/dev/full", "x");
    } catch (error) {
      return error;
    }
    throw new Error("/dev/full accepted a write");
  };
  // Where each open file descriptor points (the embedded database writes through descriptors).
  const paths = new Map();
  fs.openSync = function openSync(file, ...rest) {
    const fd = original.openSync.call(this, file, ...rest);
    if (typeof file === "string") paths.set(fd, file);
    return fd;
  };
  fs.closeSync = function closeSync(fd) {
    paths.delete(fd);
    return original.closeSync.call(this, fd);
  };
  fs.writeSync = function writeSync(fd, ...rest) {
    if (isFull(paths.get(fd))) throw enospc();
    return original.writeSync.call(this, fd, ...rest);
  };
  fs.writeFileSync = function writeFileSync(file, ...rest) {
    if (isFull(file)) throw enospc();
    return original.writeFileSync.call(this, file, ...rest);
  };
  fs.createWriteStream = function createWriteStream(file, ...rest) {
    return original.createWriteStream.call(this, isFull(file) ? "/dev/full" : file, ...rest);
  };
  fs.promises.writeFile = async function writeFile(file, ...rest) {
    if (isFull(file)) throw enospc();
    return original.writeFile.call(this, file, ...rest);
  };
  syncBuiltinESMExports();
}
