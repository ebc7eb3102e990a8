import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import * as solanaErrors from '../../../src/chains/solana/errors.ts'
import * as emailErrors from '../../../src/errors/email.ts'
import * as embeddedErrors from '../../../src/errors/embedded.ts'
import * as errors from '../../../src/errors/index.ts'
import * as serviceErrors from '../../../src/errors/service.ts'
import * as walletErrors from '../../../src/errors/wallet.ts'
import accountLoaders from '../../../src/shared/i18n/accountLoaders.ts'
import activityLoaders from '../../../src/shared/i18n/activityLoaders.ts'
import embeddedLoaders from '../../../src/shared/i18n/embeddedLoaders.ts'
import loaders from '../../../src/shared/i18n/loaders.ts'
import type { Part } from '../../../src/shared/i18n/message.ts'
import { createFormatter, parseMessage } from '../../../src/shared/i18n/message.ts'
import namesLoaders from '../../../src/shared/i18n/namesLoaders.ts'
import pairingLoaders from '../../../src/shared/i18n/pairingLoaders.ts'
import { createStrings } from '../../../src/shared/i18n/strings.ts'
import accountEn from '../../../src/shared/locales/account/en.ts'
import activityEn from '../../../src/shared/locales/activity/en.ts'
import embeddedEn from '../../../src/shared/locales/embedded/en.ts'
import type { MessageKey } from '../../../src/shared/locales/en.ts'
import baseEn from '../../../src/shared/locales/en.ts'
import namesEn from '../../../src/shared/locales/names/en.ts'
import pairingEn from '../../../src/shared/locales/pairing/en.ts'
import { LOCALES, resolveLocale } from '../../../src/ui/i18n/locales.ts'

type Catalogue = Readonly<Record<MessageKey, string>>

// Each language's catalogues (the modal's, and those loaded with the views after connecting, with the
// embedded wallet's views, with the name and on-ramp views, with the Activity list and with the
// ConnectingWalletConnect views) as one.
const en = { ...baseEn, ...accountEn, ...embeddedEn, ...namesEn, ...activityEn, ...pairingEn } as Catalogue
const catalogues = Object.fromEntries(
  await Promise.all(
    LOCALES.map(
      async (locale) =>
        [
          locale,
          {
            ...(await loaders[locale]()).default,
            ...(await accountLoaders[locale]()).default,
            ...(await embeddedLoaders[locale]()).default,
            ...(await namesLoaders[locale]()).default,
            ...(await activityLoaders[locale]()).default,
            ...(await pairingLoaders[locale]()).default,
          },
        ] as const,
    ),
  ),
) as Record<(typeof LOCALES)[number], Catalogue>

const keys = Object.keys(en).sort() as MessageKey[]

/** Source files that may use a key, as text (the catalogues themselves excluded). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return path.endsWith('locales') ? [] : sources(path)
    return /\.tsx?$/.test(name) ? [readFileSync(path, 'utf8')] : []
  })
}

/** Every error the library can show: the catalogue's classes made with their defaults. */
function everyError(): errors.BaseError[] {
  const made: errors.BaseError[] = []
  for (const value of [
    ...Object.values(errors),
    ...Object.values(solanaErrors),
    ...Object.values(emailErrors),
    ...Object.values(embeddedErrors),
    ...Object.values(serviceErrors),
    ...Object.values(walletErrors),
  ]) {
    if (typeof value !== 'function' || !(value.prototype instanceof errors.BaseError)) continue
    const ErrorClass = value as unknown as new (...args: unknown[]) => errors.BaseError
    // What the classes that need something are given; the others ignore it.
    const needs = { secondsLeft: 17, signature: '5VERv8', timeoutMs: 30_000, transactionError: null }
    made.push(value === errors.ValidationError ? new ErrorClass('x') : new ErrorClass(needs))
  }
  return made
}

/** Argument names a message uses (`#` aside), and its plural branches. */
function shape(parts: readonly Part[], names = new Set<string>(), plurals: Record<string, string>[] = []) {
  for (const part of parts) {
    if (typeof part === 'string' || part.name === '#') continue
    names.add(part.name)
    if ('branches' in part) {
      if (part.kind === 'plural')
        plurals.push(Object.fromEntries(Object.keys(part.branches).map((k) => [k, k])))
      for (const branch of Object.values(part.branches)) shape(branch, names, plurals)
    }
  }
  return { names: [...names].sort(), plurals }
}

describe('locale catalogues', () => {
  it('default: twelve languages, each its own chunk, English first', () => {
    assert.deepEqual(LOCALES, ['en', 'es', 'fr', 'de', 'pt-BR', 'it', 'ja', 'ko', 'zh-CN', 'ru', 'tr', 'ar'])
    assert.deepEqual(Object.keys(loaders), [...LOCALES])
    assert.deepEqual(Object.keys(accountLoaders), [...LOCALES])
    assert.deepEqual(Object.keys(embeddedLoaders), [...LOCALES])
    assert.deepEqual(Object.keys(namesLoaders), [...LOCALES])
    assert.deepEqual(Object.keys(activityLoaders), [...LOCALES])
    // A key lives in one of the English catalogues, never two.
    const all = [baseEn, accountEn, embeddedEn, namesEn, activityEn].flatMap((catalogue) =>
      Object.keys(catalogue),
    )
    assert.equal(new Set(all).size, all.length)
  })

  for (const locale of LOCALES) {
    it(`behavior: ${locale} has exactly the keys of English, each message parses with the same arguments`, () => {
      const messages = catalogues[locale]
      const own = Object.keys(messages).sort()
      assert.deepEqual(
        own.filter((key) => !(key in en)),
        [],
        `${locale} has keys English does not`,
      )
      assert.deepEqual(
        keys.filter((key) => !(key in messages)),
        [],
        `${locale} lacks keys`,
      )
      for (const key of keys) {
        const text = messages[key]
        assert.ok(text.trim(), `${locale} ${key} is empty`)
        assert.deepEqual(
          shape(parseMessage(text)).names,
          shape(parseMessage(en[key])).names,
          `${locale} ${key} uses other arguments than English`,
        )
      }
    })

    it(`behavior: ${locale} plurals have a branch for every plural form of a count from 0 to 1000`, () => {
      const rules = new Intl.PluralRules(locale)
      const needed = new Set(Array.from({ length: 1001 }, (_, n) => rules.select(n)))
      const valid = new Set(rules.resolvedOptions().pluralCategories)
      for (const key of keys) {
        for (const branches of shape(parseMessage(catalogues[locale][key])).plurals) {
          for (const form of needed) assert.ok(form in branches, `${locale} ${key} lacks "${form}"`)
          for (const form of Object.keys(branches))
            assert.ok(
              valid.has(form as Intl.LDMLPluralRule) || /^=\d+$/.test(form),
              `${locale} ${key}: "${form}"`,
            )
        }
      }
    })
  }

  it('error: a key no view, error or validation message uses fails (no unused keys)', () => {
    const text = sources('src').join('\n')
    const errorIds = new Set(everyError().map((error) => error.messageId))
    const unused = keys.filter((key) =>
      key.startsWith('error.')
        ? !errorIds.has(key.slice(6)) && !text.includes(`messageId: '${key.slice(6)}'`)
        : !text.includes(`'${key}'`),
    )
    assert.deepEqual(unused, [])
  })

  it('error: an error the views can show without a catalogue entry fails (no missing keys)', () => {
    const ids = [
      ...everyError().map((error) => error.messageId),
      ...[
        ...sources('src')
          .join('\n')
          .matchAll(/messageId: '(\w+)'/g),
      ].map((match) => match[1]),
    ].filter((id): id is string => id !== undefined)
    assert.deepEqual(
      ids.filter((id) => !(`error.${id}` in en)),
      [],
    )
  })

  it("behavior: English keeps SPEC's messages exactly (each error's catalogue entry is its shortMessage)", () => {
    const strings = createStrings('en', en, 'ltr')
    for (const error of everyError()) {
      if (!error.messageId) continue
      assert.equal(strings.error(errors.summarizeError(error)), error.shortMessage, error.name)
    }
    const send = new errors.ValidationError('An amount and receiver address are required', {
      messageId: 'amountAndReceiverRequired',
    })
    assert.equal(strings.error(errors.summarizeError(send)), 'An amount and receiver address are required')
    // Words from elsewhere (a wallet's own message) are shown as they are, in every language.
    const wallet = errors.toBaseError({ code: -32000, message: 'header not found' })
    assert.equal(
      createStrings('de', catalogues.de, 'ltr').error(errors.summarizeError(wallet)),
      'header not found',
    )
  })

  it('behavior: the same error reads in each language, with its values', () => {
    const cooldown = errors.summarizeError(new emailErrors.EmailCooldownError({ secondsLeft: 3 }))
    assert.equal(createStrings('en', en, 'ltr').error(cooldown), 'Please try again after 3 seconds')
    assert.equal(
      createStrings('de', catalogues.de, 'ltr').error(cooldown),
      'Bitte versuche es in 3 Sekunden erneut',
    )
    assert.equal(
      createStrings('ru', catalogues.ru, 'ltr').error(cooldown),
      'Повторите попытку через 3 секунды',
    )
    const declined = errors.summarizeError(new errors.SignatureDeclinedError())
    assert.equal(createStrings('ja', catalogues.ja, 'ltr').error(declined), '署名が拒否されました')
  })
})

describe('message format (ICU subset)', () => {
  it('behavior: plurals follow each language (1 wallet, 2 wallets; Russian and Arabic forms)', () => {
    const count = (locale: keyof typeof catalogues, n: number) =>
      createStrings(locale, catalogues[locale], 'ltr').t('walletCount', { count: n })
    assert.equal(count('en', 1), '1 wallet')
    assert.equal(count('en', 1234), '1,234 wallets')
    assert.equal(count('de', 1234), '1.234 Wallets')
    assert.equal(count('ru', 1), '1 кошелёк')
    assert.equal(count('ru', 3), '3 кошелька')
    assert.equal(count('ru', 5), '5 кошельков')
    assert.equal(count('ru', 21), '21 кошелёк')
    assert.equal(count('ar', 0), 'لا توجد محافظ')
    assert.equal(count('ar', 2), 'محفظتان')
    assert.equal(count('ar', 5), '5 محافظ')
    assert.equal(count('ar', 11), '11 محفظة')
  })

  it('behavior: select, exact matches, quotes and nested arguments', () => {
    const format = createFormatter('en').format
    const networks = en.namespaceNetworks
    assert.equal(format(networks, { namespace: 'eip155' }), 'EVM networks')
    assert.equal(format(networks, { namespace: 'cosmos' }), 'Cosmos networks')
    assert.equal(format(networks, { namespace: 'tron' }), 'tron networks')
    assert.equal(format('{n, plural, =0 {none} one {# item} other {# items}}', { n: 0 }), 'none')
    assert.equal(format("Don't quote '{braces}' but keep it''s"), "Don't quote {braces} but keep it's")
    assert.equal(format('{n, number} of {total, number}', { n: 1200, total: 3 }), '1,200 of 3')
  })

  it('behavior: in right-to-left text every value is isolated (FSI…PDI), so amounts keep their order', () => {
    const rtl = createStrings('ar', catalogues.ar, 'rtl')
    assert.equal(rtl.t('available', { amount: '10,000.000 ETH' }), 'المتاح: \u206810,000.000 ETH\u2069')
    assert.equal(createStrings('en', en, 'ltr').t('available', { amount: '1 ETH' }), 'Available: 1 ETH')
  })

  it('error: a malformed message is refused with where it broke', () => {
    assert.throws(() => parseMessage('{count, plural, one {# x}}'), /needs an "other" branch/)
    assert.throws(() => parseMessage('{name'), /expected/)
    assert.throws(() => parseMessage('a } b'), /unmatched/)
    assert.throws(() => parseMessage('{n, date}'), /unknown argument type "date"/)
  })

  it('behavior: numbers, money and dates use Intl in the chosen language', () => {
    const de = createStrings('de', catalogues.de, 'ltr')
    assert.equal(de.balance(10n ** 22n, 18), '10.000,000')
    assert.equal(de.currency(1234.5, 'USD'), '1.234,50\u00a0$')
    assert.equal(createStrings('en', en, 'ltr').currency(1234.5, 'USD'), '$1,234.50')
    const day = Date.UTC(2026, 10, 23, 12, 0)
    assert.equal(de.date(day, { dateStyle: 'long', timeZone: 'UTC' }), '23. November 2026')
    assert.equal(
      createStrings('ja', catalogues.ja, 'ltr').date(day, { dateStyle: 'long', timeZone: 'UTC' }),
      '2026年11月23日',
    )
  })
})

describe('resolveLocale', () => {
  it('default: the browser languages in order, English when none is supported', () => {
    assert.equal(resolveLocale(undefined, ['de-AT', 'en']), 'de')
    assert.equal(resolveLocale(undefined, ['nl', 'fr-CA']), 'fr')
    assert.equal(resolveLocale(undefined, ['pt-PT']), 'pt-BR')
    assert.equal(resolveLocale(undefined, ['zh']), 'zh-CN')
    assert.equal(resolveLocale(undefined, ['nl', 'sv']), 'en')
    assert.equal(resolveLocale(undefined, []), 'en')
  })

  it('args: the locale attribute wins over the browser; an unsupported one reads English', () => {
    assert.equal(resolveLocale('ar', ['de']), 'ar')
    assert.equal(resolveLocale('pt-br', ['de']), 'pt-BR')
    assert.equal(resolveLocale('es-MX', ['de']), 'es')
    assert.equal(resolveLocale('nl', ['de']), 'en')
  })
})
