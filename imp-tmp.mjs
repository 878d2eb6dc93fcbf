const m = () => { const u = process.memoryUsage(); return `rss ${(u.rss/1048576).toFixed(0)} heap ${(u.heapUsed/1048576).toFixed(0)} ext ${(u.external/1048576).toFixed(0)} ab ${(u.arrayBuffers/1048576).toFixed(0)}`; };
process.env.NODE_ENV="production";
const target = process.argv[2];
console.log("base", m());
await import(target);
globalThis.gc?.();
console.log(target, m());
