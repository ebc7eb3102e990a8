import { useEffect, useState } from 'react'
import { IMAGE_PRELOAD_RACE_MS } from '../../protocol/constants.ts'
import { WalletIcon } from './Icons.tsx'

/**
 * A wallet logo that shows a placeholder until it loads; an image slower than 2 s (SPEC section 9)
 * or broken gives way to a generic icon, so a slow service never leaves holes in the list.
 */
export function WalletImage({
  src,
  size = 40,
  lazy = false,
}: {
  src: string | undefined
  size?: number
  lazy?: boolean
}) {
  const [state, setState] = useState<'loading' | 'loaded' | 'failed'>(src ? 'loading' : 'failed')
  useEffect(() => {
    setState(src ? 'loading' : 'failed')
    if (!src) return
    const timer = setTimeout(
      () => setState((current) => (current === 'loading' ? 'failed' : current)),
      IMAGE_PRELOAD_RACE_MS,
    )
    return () => clearTimeout(timer)
  }, [src])
  if (!src || state === 'failed') {
    return (
      <span className="wallet-icon placeholder" style={{ width: size, height: size }}>
        <WalletIcon />
      </span>
    )
  }
  return (
    <img
      src={src}
      alt=""
      width={size}
      height={size}
      loading={lazy ? 'lazy' : 'eager'}
      decoding="async"
      data-loaded={state === 'loaded' ? '' : undefined}
      onLoad={() => setState('loaded')}
      onError={() => setState('failed')}
    />
  )
}

/** Starts fetching images ahead of display; resolves when all are in or after 2 s, whichever first. */
export function preloadImages(urls: readonly string[]): Promise<void> {
  const all = Promise.all(
    urls.map(
      (url) =>
        new Promise<void>((resolve) => {
          const image = new Image()
          image.onload = image.onerror = () => resolve()
          image.src = url
        }),
    ),
  ).then(() => undefined)
  return Promise.race([all, new Promise<void>((resolve) => setTimeout(resolve, IMAGE_PRELOAD_RACE_MS))])
}
