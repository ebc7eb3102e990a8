import type { Config } from '../../core/createConfig.ts'

export interface ViewProps {
  config: Config
}
