/** An account's profile from the name registry (SPEC 3: profile name and image), when it was fetched. */
export interface ProfileEntry {
  name: string | null
  avatar: string | null
  fetchedAt: number
}
