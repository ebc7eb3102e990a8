import { useMemo } from 'react'
import { encode } from 'uqr'

/** Modules of light margin around the code, as the QR specification asks for reliable scanning. */
const QUIET_ZONE = 4

/**
 * A QR code drawn as one SVG path, with high error correction so a logo can sit in its middle. It
 * scales to the space it has (at most 280 px; styles in modalStyles `.qr`). The link it encodes is
 * also offered as text (copy) by the views, for people who cannot scan.
 */
export function QrCode({ value, logo, label }: { value: string; logo?: string | undefined; label: string }) {
  const { path, modules } = useMemo(() => {
    const qr = encode(value, { ecc: 'H', border: QUIET_ZONE })
    let d = ''
    qr.data.forEach((row, y) => {
      row.forEach((dark, x) => {
        if (dark) d += `M${x} ${y}h1v1h-1z`
      })
    })
    return { path: d, modules: qr.size }
  }, [value])
  return (
    <div className="qr" part="qr">
      <svg role="img" aria-label={label} viewBox={`0 0 ${modules} ${modules}`} shapeRendering="crispEdges">
        <rect width={modules} height={modules} fill="#fff" />
        <path d={path} fill="#000" />
      </svg>
      {logo ? <img src={logo} alt="" className="qr-logo" /> : null}
    </div>
  )
}
