// Set by the memlens-offline Vite plugin; absent under Vitest and the dev server.
declare const __MEMLENS_ALLOW_UPSTREAM__: boolean | undefined;

/** True on a deployed build that leaves non-redistributable files to their upstream URLs. */
export const ALLOW_UPSTREAM: boolean =
  typeof __MEMLENS_ALLOW_UPSTREAM__ === 'boolean' && __MEMLENS_ALLOW_UPSTREAM__;
