// One-off generator for the placeholder images shipped in public/images (run: node scripts/generate-placeholder-images.mjs).
// Each image is drawn as SVG and written as AVIF and WebP at each width listed, named {name}-{width}.{ext}.
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";

const OUT = path.resolve("public/images");

const IMAGES = [
  {
    dir: "portrait",
    name: "portrait",
    width: 480,
    height: 600,
    widths: [240, 480],
    colors: ["#1e3a8a", "#0ea5e9"],
    label: "Portrait",
    kind: "portrait",
  },
  ...[
    ["option-1", "Split Hero", ["#1e40af", "#60a5fa"]],
    ["option-2", "Full-Bleed Photo", ["#0f172a", "#475569"]],
    ["option-3", "Gradient Statement", ["#7c3aed", "#ec4899"]],
    ["option-4", "Metrics First", ["#065f46", "#34d399"]],
    ["option-5", "Video Intro", ["#9a3412", "#fb923c"]],
  ].map(([name, label, colors]) => ({ dir: "hero", name, width: 1200, height: 675, widths: [600, 1200], colors, label })),
  ...[
    ["onboarding-portal", "Client Onboarding Portal", ["#1d4ed8", "#38bdf8"]],
    ["knowledge-base", "Training Knowledge Base", ["#047857", "#a3e635"]],
    ["launch-kit", "Website Launch Kit", ["#b45309", "#facc15"]],
  ].map(([name, label, colors]) => ({ dir: "projects", name, width: 800, height: 450, widths: [400, 800], colors, label })),
  ...[
    ["faith", "Faith", ["#4338ca", "#a78bfa"]],
    ["finance", "Finance", ["#166534", "#86efac"]],
    ["fitness", "Fitness", ["#be123c", "#fda4af"]],
    ["fun", "Fun", ["#c2410c", "#fde047"]],
    ["friends", "Friends", ["#0e7490", "#67e8f9"]],
    ["family", "Family", ["#9d174d", "#f9a8d4"]],
    ["figurehead", "Figurehead", ["#334155", "#cbd5e1"]],
  ].map(([name, label, colors]) => ({ dir: "posts", name, width: 800, height: 450, widths: [400, 800], colors, label })),
  {
    dir: "og",
    name: "default",
    width: 1200,
    height: 630,
    widths: [1200],
    colors: ["#1e3a8a", "#7c3aed"],
    label: "Product · Project · Program · Apps",
  },
];

function svg({ width, height, colors: [from, to], label, kind }) {
  const figure =
    kind === "portrait"
      ? `<circle cx="${width / 2}" cy="${height * 0.38}" r="${width * 0.2}" fill="#ffffff" fill-opacity="0.85"/>
         <ellipse cx="${width / 2}" cy="${height * 0.9}" rx="${width * 0.38}" ry="${height * 0.28}" fill="#ffffff" fill-opacity="0.85"/>`
      : `<circle cx="${width * 0.82}" cy="${height * 0.2}" r="${height * 0.35}" fill="#ffffff" fill-opacity="0.12"/>
         <rect x="${width * 0.08}" y="${height * 0.62}" width="${width * 0.4}" height="${height * 0.06}" rx="8" fill="#ffffff" fill-opacity="0.35"/>
         <text x="${width * 0.08}" y="${height * 0.5}" font-family="DejaVu Sans, Arial, sans-serif" font-size="${Math.round(height / 10)}" font-weight="700" fill="#ffffff">${label}</text>`;
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#g)"/>${figure}</svg>`);
}

for (const image of IMAGES) {
  const dir = path.join(OUT, image.dir);
  fs.mkdirSync(dir, { recursive: true });
  const base = sharp(svg(image));
  for (const width of image.widths) {
    const resized = base.clone().resize({ width });
    await resized
      .clone()
      .webp({ quality: 72 })
      .toFile(path.join(dir, `${image.name}-${width}.webp`));
    if (image.dir !== "og")
      await resized
        .clone()
        .avif({ quality: 50 })
        .toFile(path.join(dir, `${image.name}-${width}.avif`));
  }
  if (image.dir === "og")
    await base
      .clone()
      .jpeg({ quality: 80 })
      .toFile(path.join(dir, `${image.name}.jpg`));
}
console.log(`wrote ${IMAGES.length} images to ${OUT}`);

// A one-page placeholder resume (app/features/settings/demo-resume.pdf, served at /resume.pdf while it is the
// site's), written as a minimal hand-built PDF in plain ASCII (the server bundles it as text).
function pdf(lines) {
  const escape = (s) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const stream = [
    "BT",
    "/F1 20 Tf",
    "72 740 Td",
    `(${escape(lines[0])}) Tj`,
    "/F1 11 Tf",
    ...lines.slice(1).flatMap((l) => ["0 -18 Td", `(${escape(l)}) Tj`]),
    "ET",
  ].join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${Buffer.byteLength(stream)} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return out;
}
fs.writeFileSync(
  path.resolve("app/features/settings/demo-resume.pdf"),
  pdf([
    "Resume - Product Manager, Project Manager & Application Developer",
    "Technical Product Manager, Enterprise SaaS Platform (02/2022 - 07/2025, Remote, USA)",
    "System Project Consultant, Regional Healthcare Network (06/2019 - 01/2022)",
    "Owner, digital consulting agency",
    "Owner, training and knowledge-base business",
    "Certifications: PMP, CSM, SAFe POPM, ITIL 4 Foundation, AWS Cloud Practitioner",
    "Education: M.S. Information Systems Management; B.S. Business Administration, IT",
  ]),
);
console.log("wrote app/features/settings/demo-resume.pdf");
