// The browser's "the network is back" as a subscription, for runs that failed offline to retry.
export function whenBackOnline(
  retry: () => void,
  target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> = globalThis,
): () => void {
  const listener = () => retry();
  target.addEventListener('online', listener);
  return () => target.removeEventListener('online', listener);
}
