// Shared helper of the configuration tests: the problems loadConfig reports.
import assert from 'node:assert/strict'
import { ConfigError, loadConfig, type ServiceEnv } from '../../../server/config.ts'

export function problems(env: ServiceEnv): string[] {
  try {
    loadConfig(env)
  } catch (error) {
    assert.ok(error instanceof ConfigError)
    assert.match(error.message, /^Invalid service configuration:/)
    return [...error.problems]
  }
  assert.fail('expected a ConfigError')
}
