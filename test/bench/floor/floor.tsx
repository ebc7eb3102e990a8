/**
 * The floor of the first-open bench (test/bench/firstOpen.ts): the least a React 19 custom element
 * made with r2wc can do on a click. `<floor-button>` renders a button; its click opens, in the same
 * render, a dialog with the DOM and styles of our Connect view on the bench page (header with title
 * and Close, "Browser wallets" with one installed wallet). Nothing is lazy, there are no stores, no
 * strings to load, no focus management: what is left is React rendering and the browser painting.
 *
 * Built by Vite inside the bench (`buildFloor`), never checked in as output.
 */
import r2wc from '@r2wc/react-to-web-component'
import { useState } from 'react'
import { CloseIcon } from '../../../src/ui/components/Icons.tsx'
import { buttonStyles } from '../../../src/ui/theme/buttonStyles.ts'
import { modalStyles } from '../../../src/ui/theme/modalStyles.ts'

/** The in-page wallet of the bench page (its EIP-6963 announcement), shown as the one browser wallet. */
const WALLET = { name: 'Bench Wallet', icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>' }

function Dialog({ onClose }: { onClose: () => void }) {
  return (
    <>
      <style>{modalStyles}</style>
      <div className="root" data-theme="light" lang="en">
        <div className="overlay" part="overlay">
          <div className="panel" role="dialog" aria-modal="true" aria-labelledby="title" tabIndex={-1}>
            <div className="header">
              <span />
              <h2 id="title" tabIndex={-1}>
                Connect Wallet
              </h2>
              <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
                <CloseIcon />
              </button>
            </div>
            <div className="body">
              <div role="alert" className="alerts" />
              <div className="sections">
                <section aria-labelledby="browser-title">
                  <h3 className="section-title" id="browser-title">
                    Browser wallets
                  </h3>
                  <ul className="list">
                    <li>
                      <button type="button" className="item" autoFocus>
                        <img src={WALLET.icon} alt="" width={40} height={40} />
                        <span className="name" title={WALLET.name}>
                          {WALLET.name}
                        </span>
                        <span className="badge">Installed</span>
                      </button>
                    </li>
                  </ul>
                </section>
              </div>
            </div>
          </div>
        </div>
      </div>
    </>
  )
}

function FloorButton() {
  const [open, setOpen] = useState(false)
  return (
    <>
      <style>{buttonStyles}</style>
      <div className="root" data-theme="light" lang="en">
        <button
          type="button"
          className="button"
          aria-haspopup="dialog"
          aria-expanded={open}
          onClick={() => setOpen(true)}
        >
          <span>Connect Wallet</span>
        </button>
      </div>
      {open ? <Dialog onClose={() => setOpen(false)} /> : null}
    </>
  )
}

customElements.define('floor-button', r2wc(FloorButton, { shadow: 'open' }))
