-- Sign In With Farcaster from the Farcaster app a page runs in (a mini app): the host app signs the
-- message itself, so such a sign-in in progress has our nonce and no relay channel.
ALTER TABLE "wallet_farcaster_logins" ALTER COLUMN "channel_token" DROP NOT NULL;
