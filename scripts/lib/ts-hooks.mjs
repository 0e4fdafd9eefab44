/**
 * Module hooks that let a script import the project's TypeScript sources as they are (Node 22.18+ strips the
 * types): the sources import each other without an extension ('./distances'), as the bundler resolves them, so a
 * relative specifier that does not resolve is tried again with '.ts'. Registered by scripts that need the shared
 * rules (import-results.mjs): `register(new URL("./lib/ts-hooks.mjs", import.meta.url))`.
 */
export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (err) {
    const relative = specifier.startsWith("./") || specifier.startsWith("../");
    if (err?.code === "ERR_MODULE_NOT_FOUND" && relative && !/\.[cm]?[jt]sx?$/.test(specifier)) {
      return nextResolve(`${specifier}.ts`, context);
    }
    throw err;
  }
}
