/** Loader hook: the `electron` specifier resolves to electron-stand-in.mjs. */
const standIn = new URL("./electron-stand-in.mjs", import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier === "electron") return { url: standIn, shortCircuit: true };
  return next(specifier, context);
}
