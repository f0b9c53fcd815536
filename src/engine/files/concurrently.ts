// A few file looks at a time instead of one after another: on the safety net's pass each team's
// checks are a string of small awaited stats, and an awaited file call costs far more CPU alone
// (a thread-pool handoff and a wake-up each) than when several are in flight together.
/** Runs `fn` on every item, at most `limit` at once; resolves when all are done, rejects with the first error. */
export async function forEachConcurrently<T>(items: Iterable<T>, fn: (item: T) => Promise<void>, limit = 8): Promise<void> {
  const list = [...items];
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < list.length) {
      const item = list[next++]!;
      try {
        await fn(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, list.length) }, worker));
  if (failure) throw failure.error;
}
