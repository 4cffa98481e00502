import type { AccountFixture } from "../fixtures";
import type { Store } from "../store";

export function seedNotifications(_store: Store, _account: AccountFixture): void {}
