/**
 * A project's sponsorship policy (which networks, which contracts, a daily budget per sender and in
 * total, in wei of maximum gas cost) and its daily spending, in the database. The budget is taken when
 * the paymaster signs (`pm_getPaymasterData`), under row locks, so two instances on one PostgreSQL never
 * both spend the last of it.
 */
import { and, eq, inArray, sql } from 'drizzle-orm'
import { type Address, getAddress } from 'viem'
import * as z from 'zod/mini'
import { caip2NetworkId } from '../../src/protocol/api/index.ts'
import type { Db } from '../db/database.ts'
import { paymasterPolicies, paymasterSpending, projects } from '../db/schema.ts'

/** What a project sponsors. */
export interface PaymasterPolicy {
  /** CAIP-2 ids, `eip155:` only. */
  networks: string[]
  /** Checksummed addresses; every call target of a sponsored operation must be one of them. */
  contracts: Address[]
  /** Wei of maximum gas cost a day for each sender (the smart account). */
  perUserDailyWei: bigint
  /** Wei of maximum gas cost a day for the whole project. */
  totalDailyWei: bigint
}

/** The project is unknown, or the policy is malformed. */
export class PaymasterPolicyError extends Error {
  override name = 'PaymasterPolicyError'
}

const wei = z
  .bigint()
  .check(z.gte(0n, 'Expected wei, 0 or more'), z.lt(2n ** 256n, 'Expected at most 2^256 - 1 wei'))
const policySchema = z.object({
  networks: z
    .array(caip2NetworkId.check(z.startsWith('eip155:', 'Only eip155 networks have paymasters')))
    .check(z.minLength(1, 'Name at least one network'), z.maxLength(50)),
  contracts: z
    .array(
      z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'Expected a contract address (0x and 40 hex digits)')),
    )
    .check(z.minLength(1, 'Name at least one contract'), z.maxLength(500)),
  perUserDailyWei: wei,
  totalDailyWei: wei,
})

/** The marker row of a project's total in `paymaster_spending`. */
const TOTAL = '*'

/**
 * Sets (replaces) a project's policy.
 *
 * @example
 * await setPaymasterPolicy(db, 'shop', { networks: ['eip155:8453'], contracts: [router], perUserDailyWei: 10n ** 15n, totalDailyWei: 10n ** 18n })
 */
export async function setPaymasterPolicy(
  db: Db,
  projectId: string,
  input: PaymasterPolicy,
): Promise<PaymasterPolicy> {
  const parsed = z.safeParse(policySchema, input)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new PaymasterPolicyError(`${issue?.path.join('.') ?? 'policy'}: ${issue?.message ?? 'invalid'}`)
  }
  const policy: PaymasterPolicy = {
    networks: [...new Set(parsed.data.networks)].sort(),
    contracts: [...new Set(parsed.data.contracts.map((contract) => getAddress(contract)))].sort(),
    perUserDailyWei: parsed.data.perUserDailyWei,
    totalDailyWei: parsed.data.totalDailyWei,
  }
  const [project] = await db.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId))
  if (!project) throw new PaymasterPolicyError(`No project has the id ${projectId}`)
  const values = {
    networks: policy.networks,
    contracts: policy.contracts,
    perUserDailyWei: policy.perUserDailyWei.toString(),
    totalDailyWei: policy.totalDailyWei.toString(),
  }
  await db
    .insert(paymasterPolicies)
    .values({ projectId, ...values })
    .onConflictDoUpdate({ target: paymasterPolicies.projectId, set: { ...values, updatedAt: new Date() } })
  return policy
}

/**
 * A project's policy, or null when it sponsors nothing.
 *
 * @example
 * const policy = await getPaymasterPolicy(db, 'shop')
 */
export async function getPaymasterPolicy(db: Db, projectId: string): Promise<PaymasterPolicy | null> {
  const [row] = await db.select().from(paymasterPolicies).where(eq(paymasterPolicies.projectId, projectId))
  if (!row) return null
  return {
    networks: row.networks,
    contracts: row.contracts as Address[],
    perUserDailyWei: BigInt(row.perUserDailyWei),
    totalDailyWei: BigInt(row.totalDailyWei),
  }
}

/**
 * Stops sponsoring for a project; resolves to whether it had a policy.
 *
 * @example
 * await removePaymasterPolicy(db, 'shop')
 */
export async function removePaymasterPolicy(db: Db, projectId: string): Promise<boolean> {
  const removed = await db
    .delete(paymasterPolicies)
    .where(eq(paymasterPolicies.projectId, projectId))
    .returning({ projectId: paymasterPolicies.projectId })
  return removed.length > 0
}

/** Which budget a cost does not fit in, or null when it fits both. */
export type BudgetShortfall = 'per-user' | 'total' | null

export type BudgetCharge = {
  projectId: string
  /** The UTC day, `YYYY-MM-DD`. */
  day: string
  sender: Address
  /** Wei of maximum gas cost. */
  cost: bigint
  policy: Pick<PaymasterPolicy, 'perUserDailyWei' | 'totalDailyWei'>
}

/**
 * Whether `cost` still fits today's budgets, without taking it (the stub's check).
 *
 * @example
 * if ((await budgetShortfall(db, charge)) !== null) refuse()
 */
export async function budgetShortfall(db: Db, charge: BudgetCharge): Promise<BudgetShortfall> {
  const rows = await db
    .select({ sender: paymasterSpending.sender, spentWei: paymasterSpending.spentWei })
    .from(paymasterSpending)
    .where(spendingRows(charge))
  return shortfall(charge, rows)
}

/**
 * Takes `cost` from today's budgets when it fits both, atomically; resolves to the budget it does not
 * fit (nothing taken) or null (taken).
 *
 * @example
 * const short = await takeBudget(db, { projectId, day: '2026-11-28', sender, cost, policy })
 */
export async function takeBudget(db: Db, charge: BudgetCharge): Promise<BudgetShortfall> {
  const sender = charge.sender.toLowerCase()
  return db.transaction(async (tx) => {
    // The rows exist before they are locked, so two first charges of a day queue on the same rows.
    await tx
      .insert(paymasterSpending)
      .values([
        { projectId: charge.projectId, day: charge.day, sender: TOTAL },
        { projectId: charge.projectId, day: charge.day, sender },
      ])
      .onConflictDoNothing()
    const rows = await tx
      .select({ sender: paymasterSpending.sender, spentWei: paymasterSpending.spentWei })
      .from(paymasterSpending)
      .where(spendingRows(charge))
      .for('update')
    const short = shortfall(charge, rows)
    if (short !== null) return short
    await tx
      .update(paymasterSpending)
      .set({ spentWei: sql`${paymasterSpending.spentWei} + ${charge.cost.toString()}::numeric` })
      .where(spendingRows(charge))
    return null
  })
}

function spendingRows(charge: BudgetCharge) {
  return and(
    eq(paymasterSpending.projectId, charge.projectId),
    eq(paymasterSpending.day, charge.day),
    inArray(paymasterSpending.sender, [TOTAL, charge.sender.toLowerCase()]),
  )
}

function shortfall(charge: BudgetCharge, rows: { sender: string; spentWei: string }[]): BudgetShortfall {
  const spent = (who: string) => BigInt(rows.find((row) => row.sender === who)?.spentWei ?? '0')
  if (spent(charge.sender.toLowerCase()) + charge.cost > charge.policy.perUserDailyWei) return 'per-user'
  if (spent(TOTAL) + charge.cost > charge.policy.totalDailyWei) return 'total'
  return null
}

/**
 * The UTC day of a time, as the spending rows name it.
 *
 * @example
 * utcDay(Date.UTC(2026, 10, 28, 23, 59)) // '2026-11-28'
 */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}
