/**
 * The two severities of an issue, in a file of its own: `issues.ts` names every module's issue
 * union (`IssueKinds`), so the modules (`run-issues.ts`, …) take the severity from here rather
 * than from it, and no import cycle forms.
 */

/** An error makes an input unusable or ambiguous; a warning is accepted but suspicious. */
export type Severity = 'error' | 'warning'

/**
 * The severity of an `Issue` (`issues.ts`) of any module: a preset check may also report a `note`
 * (information, such as the topic sets), which is neither accepted-but-suspicious nor fatal.
 */
export type IssueSeverity = Severity | 'note'
