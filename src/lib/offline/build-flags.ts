// Set by the memlens-offline Vite plugin; absent under Vitest and the dev server.
import type { Pin } from '../data/integrity.ts';

declare const __MEMLENS_ALLOW_UPSTREAM__: boolean | undefined;
declare const __MEMLENS_BUILD__: boolean | undefined;
declare const __MEMLENS_PINS__: Record<string, Pin> | undefined;

/** True on a deployed build that leaves non-redistributable files to their upstream URLs. */
export const ALLOW_UPSTREAM: boolean =
  typeof __MEMLENS_ALLOW_UPSTREAM__ === 'boolean' && __MEMLENS_ALLOW_UPSTREAM__;

/** Size and sha256 of the results CSVs and `data/index.json`, by repository/site path (builds only). */
export const SITE_PINS: Readonly<Record<string, Pin>> =
  typeof __MEMLENS_PINS__ === 'object' && __MEMLENS_PINS__ !== null ? __MEMLENS_PINS__ : {};

/** True in a built site (`vite build`); false under the dev server and Vitest. */
export const IS_BUILD: boolean = typeof __MEMLENS_BUILD__ === 'boolean' && __MEMLENS_BUILD__;
