/**
 * Errors the reference pipeline itself would raise, reported with the reference's own exception type and message.
 */
import { MixscopeError } from '../core/findings.ts'

/**
 * A `MixscopeError` for a failure the training reference would hit too (exit class `data`).
 * @param kind kebab-case kind, e.g. `bucket-sizes`.
 * @param pythonType the exception the reference raises, e.g. `ValueError`.
 * @param message the reference's message, verbatim where known.
 */
export function referenceError(kind: string, pythonType: string, message: string): MixscopeError {
  return new MixscopeError(`pipeline: the reference raises ${pythonType}: ${message}`, kind, 'data')
}
