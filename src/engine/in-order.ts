// Jobs for one key run one after another, in the order they were asked for; jobs for different
// keys run side by side. (A record's writes, a terminal's tmux commands, the reads of one inbox.)
export class InOrder {
  private readonly chains = new Map<string, Promise<void>>();

  /** Runs `job` once every job asked for earlier under `key` has settled; its result or failure is the caller's. */
  run<T>(key: string, job: () => Promise<T>): Promise<T> {
    const run = (this.chains.get(key) ?? Promise.resolve()).then(job);
    // The caller gets the job's failure from `run`; the chain only orders the jobs.
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.chains.set(key, tail);
    void tail.then(() => {
      if (this.chains.get(key) === tail) this.chains.delete(key);
    });
    return run;
  }

  /** Waits for every job asked for so far. */
  async settled(): Promise<void> {
    await Promise.all([...this.chains.values()]);
  }
}
