/**
 * One scoring child process, reused job after job: send a job, wait for its answer, its death
 * or the time limit (then the child is killed). The child writes nothing of the job's outcome
 * to the database (see worker/protocol.ts); whoever holds the slot records the outcome.
 */
import { type ChildProcess, fork } from 'node:child_process'
import type { JobMessage, ResultMessage } from '../worker/protocol.js'

/** What became of a job sent to the child. */
export type SlotOutcome = ResultMessage | { readonly type: 'died' } | { readonly type: 'timeout' }

export class ChildSlot {
  private child: ChildProcess | null = null

  constructor(private readonly module: string) {}

  /** The child's process id while it lives (tests kill it). */
  get pid(): number | undefined {
    return this.child?.pid
  }

  /** Run one job; resolves once, with the answer, `died` or `timeout`. */
  run(message: JobMessage, limitMs: number): Promise<SlotOutcome> {
    const child = this.child ?? this.spawn()
    return new Promise((resolve) => {
      let settled = false
      const finish = (o: SlotOutcome): void => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        child.off('message', onMessage)
        child.off('exit', onExit)
        resolve(o)
      }
      const onMessage = (m: ResultMessage): void => {
        if (m.submissionId === message.submissionId && m.attempt === message.attempt) finish(m)
      }
      const onExit = (): void => finish({ type: 'died' })
      const timer = setTimeout(() => {
        finish({ type: 'timeout' })
        void this.kill()
      }, limitMs)
      child.on('message', onMessage)
      child.on('exit', onExit)
      child.send(message)
    })
  }

  /** Kill the child (if any) and wait for it to exit. */
  async kill(): Promise<void> {
    const child = this.child
    this.child = null
    if (!child || child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    child.kill('SIGKILL')
    await exited
  }

  private spawn(): ChildProcess {
    const child = fork(this.module, [], {
      execArgv: this.module.endsWith('.ts') ? ['--import', 'tsx'] : [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
    })
    child.on('exit', () => {
      if (this.child === child) this.child = null
    })
    // A send to a child that has just died raises 'error' on it; the exit settles the job.
    child.on('error', () => undefined)
    this.child = child
    return child
  }
}
