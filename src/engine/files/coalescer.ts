// One re-read per thing at a time, however many hints ask for it: a burst of watcher reports
// reads each file once, and a hint that arrives during a read schedules one more (the trailing
// read), so the last change is always read.

/**
 * Runs `task(key)` for each scheduled key, never two at once per key, always once more after a
 * hint. Nobody waits on a task: its failure goes to `failed`.
 */
export class Coalescer {
  private state = new Map<string, { running: boolean; dirty: boolean }>();
  private idle: Array<() => void> = [];

  constructor(
    private readonly task: (key: string) => Promise<void>,
    private readonly failed: (key: string, e: unknown) => void,
  ) {}

  schedule(key: string): void {
    let s = this.state.get(key);
    if (!s) this.state.set(key, (s = { running: false, dirty: false }));
    if (s.running) {
      s.dirty = true;
      return;
    }
    s.running = true;
    void this.run(key, s);
  }

  private async run(key: string, s: { running: boolean; dirty: boolean }): Promise<void> {
    do {
      s.dirty = false;
      try {
        await this.task(key);
      } catch (e) {
        this.failed(key, e);
      }
    } while (s.dirty);
    s.running = false;
    this.state.delete(key);
    if (this.state.size === 0) for (const f of this.idle.splice(0)) f();
  }

  /** Resolves when nothing is scheduled or running. */
  settled(): Promise<void> {
    if (this.state.size === 0) return Promise.resolve();
    return new Promise((r) => this.idle.push(r));
  }
}
