/** Facts about processes on this host. */

/** Does a process with this pid exist on this host? (EPERM: it does, under another user.) */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}
