/**
 * The account's profile image (from the name registry) when it has one, else a colourful placeholder
 * derived from the address, so accounts are told apart at a glance. Decorative either way: the name or
 * address beside it says whose it is. Only `https:` images are shown (the service keeps no other), and
 * the image host is not told which page asked.
 */
export function Avatar({
  address,
  image,
  className = 'avatar',
}: {
  address: string
  image?: string | null | undefined
  className?: string
}) {
  if (image?.startsWith('https://'))
    return <img className={className} src={image} alt="" referrerPolicy="no-referrer" loading="lazy" />
  let hash = 0
  for (const char of address.toLowerCase()) hash = (hash * 31 + char.charCodeAt(0)) >>> 0
  const a = hash % 360
  const b = (a + 40 + ((hash >> 9) % 120)) % 360
  return (
    <span
      className={className}
      aria-hidden="true"
      style={{
        background: `linear-gradient(135deg, hsl(${a} 80% 60%), hsl(${b} 75% 45%))`,
        display: 'inline-block',
      }}
    />
  )
}
