// The Activity list's words (SPEC 4: transaction list; SPEC 8: Failed to fetch transactions), a
// catalogue apart from ../en.ts, loaded with the list on Account, so the dialog's first open carries
// none of it. English keys and message formats, as in ../en.ts.

const activity = {
  activity: 'Activity',
  activityLoading: 'Loading activity…',
  activityEmpty: 'No transactions yet',
  activityMore: 'Show more',
  activityLoadingMore: 'Loading more…',
  activityRetry: 'Try again',
  activitySend: 'Sent',
  activityReceive: 'Received',
  activitySelf: 'Sent to yourself',
  activityTrade: 'Swapped',
  activityOnramp: 'Bought',
  activityTo: 'To {address}',
  activityFrom: 'From {address}',
}

export type ActivityMessageKey = keyof typeof activity
/** A language's Activity catalogue: exactly the keys of English. */
export type ActivityMessages = Readonly<Record<ActivityMessageKey, string>>

export default activity as ActivityMessages
