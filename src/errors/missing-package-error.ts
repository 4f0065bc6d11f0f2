import { TrecscoreError } from './trecscore-error.js'

/**
 * A feature needs an optional package that is not installed, or is installed but does not load
 * (a native module built for another Node). The message is one line naming the feature, the
 * packages and the command that installs them:
 * `BERTScore needs onnxruntime-node: npm install onnxruntime-node@1.30.0`. CLI exit code 2.
 */
export class MissingPackageError extends TrecscoreError {
  /** The packages to install, as `name@version`. */
  readonly packages: readonly string[]

  constructor(message: string, packages: readonly string[]) {
    super(message, 2)
    this.packages = packages
  }
}
