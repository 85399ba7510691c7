/**
 * electron-builder afterPack hook: flips Electron's fuses on the packed binary with @electron/fuses,
 * so a shipped Bonsai cannot be run as plain Node, takes no NODE_OPTIONS or --inspect, encrypts its
 * cookies and loads its code only from its integrity-checked app.asar.
 */
const path = require("node:path");
const { flipFuses, FuseVersion, FuseV1Options } = require("@electron/fuses");

exports.default = async function afterPack(context) {
  const { electronPlatformName, appOutDir, packager } = context;
  const name = packager.appInfo.productFilename;
  const binary =
    electronPlatformName === "darwin"
      ? path.join(appOutDir, `${name}.app`)
      : path.join(appOutDir, electronPlatformName === "win32" ? `${name}.exe` : packager.executableName);
  await flipFuses(binary, {
    version: FuseVersion.V1,
    resetAdHocDarwinSignature: electronPlatformName === "darwin",
    [FuseV1Options.RunAsNode]: false,
    [FuseV1Options.EnableCookieEncryption]: true,
    [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
    [FuseV1Options.EnableNodeCliInspectArguments]: false,
    [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
    [FuseV1Options.OnlyLoadAppFromAsar]: true,
  });
};
