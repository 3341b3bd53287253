/**
 * An InMind domain as every page prints it: "health and wellness", not the file's
 * "health_and_wellness". Its own module: the InMind page (first load) and the protocol kit share it.
 */
export function domainLabel(domain: string): string {
  return domain.replaceAll('_', ' ');
}
