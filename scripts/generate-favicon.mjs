// One-off generator for public/favicon.svg, favicon.ico and apple-touch-icon.png (run: node scripts/generate-favicon.mjs).
import fs from "node:fs";
import sharp from "sharp";
// The header's "7F" mark: white text on the primary blue (oklch(0.45 0.16 255) ≈ #1d4fa8).
const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#1d4fa8"/><text x="32" y="44" font-family="Arial, Helvetica, sans-serif" font-size="34" font-weight="700" fill="#fff" text-anchor="middle">7F</text></svg>`;
fs.writeFileSync("public/favicon.svg", svg);
const png32 = await sharp(Buffer.from(svg)).resize(32, 32).png().toBuffer();
await sharp(Buffer.from(svg)).resize(180, 180).png().toFile("public/apple-touch-icon.png");
// ICO container holding one PNG image (supported by every current browser).
const header = Buffer.alloc(6);
header.writeUInt16LE(0, 0);
header.writeUInt16LE(1, 2);
header.writeUInt16LE(1, 4);
const entry = Buffer.alloc(16);
entry.writeUInt8(32, 0);
entry.writeUInt8(32, 1);
entry.writeUInt8(0, 2);
entry.writeUInt8(0, 3);
entry.writeUInt16LE(1, 4);
entry.writeUInt16LE(32, 6);
entry.writeUInt32LE(png32.length, 8);
entry.writeUInt32LE(22, 12);
fs.writeFileSync("public/favicon.ico", Buffer.concat([header, entry, png32]));
