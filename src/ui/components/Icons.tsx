const common = { width: 20, height: 20, viewBox: '0 0 24 24', fill: 'none' } as const

export const CloseIcon = () => (
  <svg aria-hidden="true" {...common}>
    <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
  </svg>
)

/** Points back: left in left-to-right text, mirrored by the styles in right-to-left text. */
export const BackIcon = () => (
  <svg aria-hidden="true" {...common} className="back-icon">
    <path
      d="M15 5l-7 7 7 7"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    />
  </svg>
)

export const CopyIcon = () => (
  <svg aria-hidden="true" {...common} width={18} height={18}>
    <rect x="8" y="8" width="12" height="12" rx="2" stroke="currentColor" strokeWidth="2" />
    <path d="M16 8V6a2 2 0 00-2-2H6a2 2 0 00-2 2v8a2 2 0 002 2h2" stroke="currentColor" strokeWidth="2" />
  </svg>
)

export const WalletIcon = () => (
  <svg aria-hidden="true" {...common} width={40} height={40}>
    <rect x="3" y="6" width="18" height="13" rx="3" stroke="currentColor" strokeWidth="1.5" />
    <path d="M16 12.5h2" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    <path d="M5 6l10-3 1 3" stroke="currentColor" strokeWidth="1.5" />
  </svg>
)

/** Marks an error besides its colour (WCAG 1.4.1): a circled exclamation mark. */
export const ErrorIcon = () => (
  <svg aria-hidden="true" {...common} width={18} height={18} className="message-icon">
    <circle cx="12" cy="12" r="9" stroke="currentColor" strokeWidth="2" />
    <path d="M12 7.5v5.5M12 16.5v.01" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
  </svg>
)

export const CheckIcon = () => (
  <svg aria-hidden="true" {...common} width={18} height={18}>
    <path
      d="M5 12.5l4.5 4.5L19 7.5"
      stroke="currentColor"
      strokeWidth="2.4"
      strokeLinecap="round"
      strokeLinejoin="round"
    />
  </svg>
)

/** Two arrows, up and down: switches the tokens of a swap. */
export const SwitchIcon = () => (
  <svg aria-hidden="true" {...common}>
    <path
      d="M8 4v16M8 4L4 8M8 4l4 4M16 20V4M16 20l-4-4M16 20l4-4"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    />
  </svg>
)
