/**
 * The packaged app's fuses come from electron-builder's own `electronFuses` option
 * (electron-builder.yml): read by electron-builder's own code into the configuration it hands to
 * @electron/fuses' flipFuses, each fuse must hold the value a shipped Bonsai needs, and no
 * afterPack hook flips them a second way.
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const desktop = path.resolve(import.meta.dirname, "..");
const config = parse(fs.readFileSync(path.join(desktop, "../../electron-builder.yml"), "utf8")) as Record<string, unknown>;

// electron-builder's packager and the @electron/fuses it flips the fuses with (its own dependency)
const builderRequire = createRequire(createRequire(path.join(desktop, "package.json")).resolve("electron-builder"));
const libRequire = createRequire(builderRequire.resolve("app-builder-lib"));
const { PlatformPackager } = builderRequire("app-builder-lib") as { PlatformPackager: { prototype: { generateFuseConfig(fuses: unknown): Promise<Record<string, unknown>> } } };
const { FuseV1Options, FuseVersion } = libRequire("@electron/fuses") as { FuseV1Options: Record<string, string>; FuseVersion: Record<string, string> };

describe("Electron's fuses in electron-builder.yml", () => {
  it("electron-builder turns electronFuses into flipFuses' configuration with each fuse as a shipped Bonsai needs it", async () => {
    const flipped = await PlatformPackager.prototype.generateFuseConfig.call({}, config.electronFuses);
    expect(flipped).toEqual({
      version: FuseVersion.V1,
      resetAdHocDarwinSignature: true,
      [FuseV1Options.RunAsNode!]: false,
      [FuseV1Options.EnableCookieEncryption!]: true,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable!]: false,
      [FuseV1Options.EnableNodeCliInspectArguments!]: false,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation!]: true,
      [FuseV1Options.OnlyLoadAppFromAsar!]: true,
    });
  });

  it("no afterPack hook flips them a second way", () => {
    expect(config).not.toHaveProperty("afterPack");
    expect(fs.existsSync(path.join(desktop, "scripts/after-pack.cjs"))).toBe(false);
  });
});
