import type { AccountFixture } from "../fixtures";
import type { Store } from "../store";

export function seedClusters(_store: Store, _account: AccountFixture): void {}
