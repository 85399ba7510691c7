/**
 * The packaged app's icons: electron-builder.yml points at PNGs that exist, at the sizes each
 * platform needs (Linux: one file per size named NxN.png; macOS .icns and Windows .ico are made
 * by electron-builder from one large PNG), rendered from build/icon.svg.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const desktop = path.resolve(import.meta.dirname, "..");
const config = parse(fs.readFileSync(path.join(desktop, "../../electron-builder.yml"), "utf8")) as {
  linux: { icon: string };
  mac: { icon: string };
  win: { icon: string };
};

/** width and height from a PNG's header (its IHDR chunk); throws for a file that is not a PNG */
function pngSize(file: string): { width: number; height: number } {
  const head = fs.readFileSync(file).subarray(0, 24);
  if (head.toString("latin1", 1, 4) !== "PNG" || head.toString("latin1", 12, 16) !== "IHDR") throw new Error(`${file} is not a PNG`);
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

describe("the app icon in electron-builder.yml", () => {
  it("Linux: a folder of NxN.png files from 16 to 512 px, each of its size", () => {
    const dir = path.join(desktop, config.linux.icon);
    const files = fs.readdirSync(dir).filter((f) => f.endsWith(".png"));
    const sizes = files.map((f) => Number(/^(\d+)x\1\.png$/.exec(f)?.[1])).sort((a, b) => a - b);
    expect(sizes).toEqual([16, 24, 32, 48, 64, 128, 256, 512]);
    for (const size of sizes) expect(pngSize(path.join(dir, `${size}x${size}.png`)), `${size}x${size}.png`).toEqual({ width: size, height: size });
  });

  it("macOS and Windows: one square PNG of 1024 px (at least 512 for the .icns, 256 for the .ico)", () => {
    for (const icon of [config.mac.icon, config.win.icon]) expect(pngSize(path.join(desktop, icon))).toEqual({ width: 1024, height: 1024 });
  });

  it("the browser page's favicon is the icon's SVG source", () => {
    const html = fs.readFileSync(path.join(desktop, "src/renderer/index.html"), "utf8");
    const href = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/.exec(html)?.[1];
    expect(href).toBeDefined();
    expect(fs.readFileSync(path.join(desktop, "src/renderer", href!), "utf8")).toMatch(/^<svg /);
  });
});
