export default function V() {
  return null;
}
