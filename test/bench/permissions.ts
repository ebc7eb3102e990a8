/**
 * Permissions (ERC-7715) on the local chain, through the service's routes as the frame calls
 * them: a call with a permission's context (stored, signed by the session key with no prompt, sent) to its
 * receipt's final status, against the same swap approved and signed by the owner, alternating in one run
 * (ms, median of `runs`; the ratio is the figure to compare between machines).
 *
 * Run alone: `npx tsx test/bench/permissions.ts [runs]`.
 */
import { parseUnits } from 'viem'
import { createAndApprove } from '../unit/server/embedded-keys-helpers.ts'
import { EVM, startPermissionsWorld } from '../unit/server/embedded-permissions-helpers.ts'

export interface PermissionsBenchResult {
  permissionMs: number[]
  ownerMs: number[]
  medianPermissionMs: number
  medianOwnerMs: number
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

export async function benchPermissions(runs = 10): Promise<PermissionsBenchResult> {
  const world = await startPermissionsWorld('bench_permissions', 'bench-permissions')
  try {
    // A day's allowance for every run of the bench.
    const {
      session,
      account,
      key,
      context: permissionsContext,
    } = await world.grantedUser('bench', (params) => {
      ;(params[0]?.permissions[0]?.data as Record<string, unknown>).periodAmount = `${parseUnits('1000', 6)}`
    })
    const permissionMs: number[] = []
    const ownerMs: number[] = []
    for (let run = 0; run < runs; run++) {
      let start = performance.now()
      const sent = await world.sendWithPermission(
        session,
        permissionsContext,
        world.swapCalls(account, parseUnits('1', 6)),
        key.secret,
      )
      const { id } = (sent.body as { result: { id: string } }).result
      if ((await world.finalStatus(session, id)) !== 200) throw new Error('The permission call did not land')
      permissionMs.push(performance.now() - start)

      start = performance.now()
      const owned = await createAndApprove(world.t, session, {
        chainId: EVM,
        method: 'wallet_sendCalls',
        params: [
          { version: '2.0.0', chainId: '0x7a69', calls: world.swapCalls(account, parseUnits('1', 6)) },
        ],
      })
      const ownerId = (owned.answer.body.result as { id: string }).id
      if ((await world.finalStatus(session, ownerId)) !== 200) throw new Error('The owner call did not land')
      ownerMs.push(performance.now() - start)
    }
    return {
      permissionMs,
      ownerMs,
      medianPermissionMs: median(permissionMs),
      medianOwnerMs: median(ownerMs),
    }
  } finally {
    await world.stop()
  }
}

export function printPermissions(result: PermissionsBenchResult): void {
  const list = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ')
  console.log(
    '\nPermissions (ERC-7715) on the local chain, call to final status (the service, the local bundler):',
  )
  console.log(
    `  with the permission's context (no prompt), median of ${result.permissionMs.length}: ${result.medianPermissionMs.toFixed(0)} ms (${list(result.permissionMs)})`,
  )
  console.log(
    `  the same swap signed by the owner, median of ${result.ownerMs.length}: ${result.medianOwnerMs.toFixed(0)} ms (${list(result.ownerMs)})`,
  )
  console.log(`  ratio permission / owner: ${(result.medianPermissionMs / result.medianOwnerMs).toFixed(2)}`)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printPermissions(await benchPermissions(Number(process.argv[2] ?? 10)))
  process.exit(0)
}
