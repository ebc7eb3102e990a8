import { useMemo } from 'react'
import { encode } from 'uqr'

/**
 * A QR code drawn as one SVG path, with high error correction so a logo can sit in its middle.
 * The link it encodes is also offered as text (copy) by the views, for people who cannot scan.
 */
export function QrCode({
  value,
  logo,
  label,
  size = 280,
}: {
  value: string
  logo?: string | undefined
  label: string
  size?: number
}) {
  const { path, modules } = useMemo(() => {
    const qr = encode(value, { ecc: 'H', border: 2 })
    let d = ''
    qr.data.forEach((row, y) => {
      row.forEach((dark, x) => {
        if (dark) d += `M${x} ${y}h1v1h-1z`
      })
    })
    return { path: d, modules: qr.size }
  }, [value])
  const logoSize = Math.round(size * 0.22)
  return (
    <div className="qr" part="qr" style={{ width: size, height: size }}>
      <svg
        role="img"
        aria-label={label}
        viewBox={`0 0 ${modules} ${modules}`}
        width={size}
        height={size}
        shapeRendering="crispEdges"
      >
        <rect width={modules} height={modules} fill="#fff" />
        <path d={path} fill="#000" />
      </svg>
      {logo ? (
        <img
          src={logo}
          alt=""
          width={logoSize}
          height={logoSize}
          className="qr-logo"
          style={{ width: logoSize, height: logoSize }}
        />
      ) : null}
    </div>
  )
}
