import type { AccountFixture } from "../fixtures";
import type { Store } from "../store";

export function seedConnections(_store: Store, _account: AccountFixture): void {}
