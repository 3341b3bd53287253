// The switch for what only scripted checks use (`window.memlens`, `webgpuProbe=fail`): on in the
// builds scripts/lib/site-build.ts makes for e2e tests and benchmarks, where Vite defines
// __MEMLENS_TEST_HOOKS__ as true. vite.config.ts defines it false, so `npm run build` drops every
// branch behind it. Undefined under Node (tsx, vitest): off.
declare const __MEMLENS_TEST_HOOKS__: boolean | undefined;

export const TEST_HOOKS: boolean =
  typeof __MEMLENS_TEST_HOOKS__ === 'boolean' && __MEMLENS_TEST_HOOKS__;
