// Passkey sign-in and linking on the frame's API: WebAuthn ceremonies the frame runs on its own origin.
import * as z from 'zod/mini'
import { bindingHash, bindingSecret, deviceId, opaqueId, siteOrigin } from './api.ts'

/** URL-safe base64 of at most `max` characters (WebAuthn's binary fields in their JSON form). */
const base64url = (max: number) =>
  z.string().check(z.regex(/^[A-Za-z0-9_-]+$/, 'Invalid passkey answer'), z.maxLength(max))

/** A credential id: up to 1023 bytes (WebAuthn's limit), 1364 characters. */
export const passkeyCredentialId = base64url(1364)

/**
 * `POST /embedded/v1/passkey/register/start`, `…/link/start`, `…/login/start`: a ceremony for this
 * browser and site, bound to the frame that starts it (the hash of its binding secret).
 */
export const passkeyStartRequest = z.object({ deviceId, origin: siteOrigin, bindingHash })
export type PasskeyStartRequest = z.infer<typeof passkeyStartRequest>

/**
 * Answer of a ceremony's start: its id and the options for `navigator.credentials.create()` or
 * `.get()` in their JSON form (`PublicKeyCredential.parseCreationOptionsFromJSON` and
 * `parseRequestOptionsFromJSON` take them).
 */
export const passkeyStartResponse = z.object({
  ceremonyId: opaqueId,
  options: z.looseObject({ challenge: base64url(128) }),
})
export type PasskeyStartResponse = z.infer<typeof passkeyStartResponse>

/** What `navigator.credentials.create()` answered, in its JSON form (`credential.toJSON()`). */
export const passkeyRegistration = z.object({
  id: passkeyCredentialId,
  rawId: passkeyCredentialId,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(8192),
    attestationObject: base64url(65_536),
    transports: z.optional(
      z
        .array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']))
        .check(z.maxLength(8)),
    ),
  }),
  authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
  clientExtensionResults: z.record(z.string(), z.unknown()),
})
export type PasskeyRegistration = z.infer<typeof passkeyRegistration>

/** What `navigator.credentials.get()` answered, in its JSON form. */
export const passkeyAssertion = z.object({
  id: passkeyCredentialId,
  rawId: passkeyCredentialId,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(8192),
    authenticatorData: base64url(8192),
    signature: base64url(1024),
    userHandle: z.optional(base64url(128)),
  }),
  authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
  clientExtensionResults: z.record(z.string(), z.unknown()),
})
export type PasskeyAssertion = z.infer<typeof passkeyAssertion>

/**
 * `POST /embedded/v1/passkey/register/finish` and `…/link/finish`: the new credential, with the
 * binding secret of the frame that started the ceremony.
 */
export const passkeyRegisterFinishRequest = z.object({
  ceremonyId: opaqueId,
  deviceId,
  binding: bindingSecret,
  credential: passkeyRegistration,
})
export type PasskeyRegisterFinishRequest = z.infer<typeof passkeyRegisterFinishRequest>

/** `POST /embedded/v1/passkey/login/finish`: the signed challenge, with the starting frame's binding secret. */
export const passkeyLoginFinishRequest = z.object({
  ceremonyId: opaqueId,
  deviceId,
  binding: bindingSecret,
  credential: passkeyAssertion,
})
export type PasskeyLoginFinishRequest = z.infer<typeof passkeyLoginFinishRequest>

/** One of the person's passkeys as Account lists it. */
export const passkeySummary = z.object({
  id: passkeyCredentialId,
  createdAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
})
export type PasskeySummary = z.infer<typeof passkeySummary>

/** `GET /embedded/v1/passkeys` and the answer of linking one: the person's passkeys, oldest first. */
export const passkeyListResponse = z.object({ passkeys: z.array(passkeySummary) })
export type PasskeyListResponse = z.infer<typeof passkeyListResponse>

/** `POST /embedded/v1/passkeys/remove`: forgets one of the person's passkeys. */
export const passkeyRemoveRequest = z.object({ id: passkeyCredentialId })
export type PasskeyRemoveRequest = z.infer<typeof passkeyRemoveRequest>
