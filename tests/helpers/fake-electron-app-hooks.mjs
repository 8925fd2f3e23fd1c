// Module hooks that resolve the bare specifier `electron` to tests/helpers/fake-electron-app.cjs,
// for tests that load electron-store (through electron/main/electron-settings-backend.ts).
// Registered with module.register() before the code under test is imported; see
// fake-electron-hooks.mjs for the ESM fake the other Electron shell tests use.
const fakeUrl = new URL('./fake-electron-app.cjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'electron') return { url: fakeUrl, format: 'commonjs', shortCircuit: true };
  return nextResolve(specifier, context);
}
