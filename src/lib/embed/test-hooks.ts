// The switch for what only scripted checks use (`window.memlens`, `webgpuProbe=fail`): on in the
// builds scripts/lib/site-build.ts makes for e2e tests and benchmarks, where Vite defines
// __MEMLENS_TEST_HOOKS__ as true. vite.config.ts defines it false, so `npm run build` drops every
// branch behind it. Undefined under Node (tsx, vitest): off.
declare const __MEMLENS_TEST_HOOKS__: boolean | undefined;

export const TEST_HOOKS: boolean =
  typeof __MEMLENS_TEST_HOOKS__ === 'boolean' && __MEMLENS_TEST_HOOKS__;

/**
 * A time-out in ms that a test build's page may shorten (`window.memlensTimeouts = { name: ms }`,
 * set by an init script before the page runs), so a test of a stall does not wait for the real
 * one; `ms` everywhere else.
 */
export function timeoutMs(name: string, ms: number): number {
  if (!TEST_HOOKS) return ms;
  const set: unknown = Reflect.get(globalThis, 'memlensTimeouts');
  if (typeof set !== 'object' || set === null || !Object.hasOwn(set, name)) return ms;
  const v: unknown = Reflect.get(set, name);
  return typeof v === 'number' && v > 0 ? v : ms;
}
