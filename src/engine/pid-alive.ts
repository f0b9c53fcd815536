// Whether a process id names a live process: signal 0 reaches it, or it exists and belongs to
// another user (EPERM). It cannot tell a reused pid apart; callers that must compare start times.
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
