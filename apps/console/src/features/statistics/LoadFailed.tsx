import { ListEmpty } from '../../components/ListEmpty';

/** A statistics view whose call failed: says so and offers a retry. */
export function LoadFailed({ onRetry }: { onRetry: () => void }) {
  return <ListEmpty text="" failed onRetry={onRetry} />;
}
