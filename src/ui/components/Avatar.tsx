/** A colourful placeholder avatar derived from the address, so accounts are told apart at a glance. */
export function Avatar({ address, className = 'avatar' }: { address: string; className?: string }) {
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
