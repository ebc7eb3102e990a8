/**
 * Styles of Account's Activity list, on the modal's tokens; rendered by `CatalogueScope` beside the
 * list, so the dialog's first open carries none of it.
 */
export const activityStyles = `
.activity { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 4px; }
.activity li { display: flex; flex-direction: column; gap: 2px; padding: 8px 12px; border-radius: 12px;
  background: var(--_surface); font-variant-numeric: tabular-nums; }
.activity-main, .activity-detail { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 0 8px; min-width: 0; }
.activity-kind { font-weight: 600; }
.activity-amount { overflow-wrap: anywhere; text-align: end; }
.activity-detail { color: var(--_muted); font-size: 13px; }
.activity-status:empty { display: none; }
.activity-status { margin: 4px; color: var(--_muted); font-size: 14px; }
`
