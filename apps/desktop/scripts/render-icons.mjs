/**
 * Renders the app icon's PNGs from its SVG source (build/icon.svg) with resvg:
 *   build/icons/NxN.png  the Linux icon set electron-builder installs (linux.icon)
 *   build/icon.png       1024 px: electron-builder makes the macOS .icns and the Windows .ico from it
 * Run after editing the SVG: node apps/desktop/scripts/render-icons.mjs (the PNGs are committed).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { Resvg } from "@resvg/resvg-js";

const LINUX_ICON_SIZES = [16, 24, 32, 48, 64, 128, 256, 512];

const build = path.join(import.meta.dirname, "../build");
const svg = fs.readFileSync(path.join(build, "icon.svg"));

function render(size, file) {
  const png = new Resvg(svg, { fitTo: { mode: "width", value: size } }).render().asPng();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, png);
}

for (const size of LINUX_ICON_SIZES) render(size, path.join(build, "icons", `${size}x${size}.png`));
render(1024, path.join(build, "icon.png"));
