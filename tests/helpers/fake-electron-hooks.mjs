// Module hooks that resolve the bare specifier `electron` to tests/helpers/fake-electron.ts.
// Registered with module.register() by tests that import electron/main code, because the real
// `electron` package cannot load on a machine without the Electron binary. Plain .mjs because
// hooks run on the loader thread; tsx's own hooks (from --import tsx) still compile the .ts file.
const fakeUrl = new URL('./fake-electron.ts', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'electron') return { url: fakeUrl, shortCircuit: true };
  return nextResolve(specifier, context);
}
