import { buildSite } from './site.ts';

export default async function setup(): Promise<void> {
  await buildSite();
  process.env.MEMLENS_E2E_PREBUILT = '1';
}
