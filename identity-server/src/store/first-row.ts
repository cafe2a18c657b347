/** The first row a query finds, mapped to its domain object; undefined when there is none. */
export async function firstRow<Row, T>(
  query: { executeTakeFirst(): Promise<Row | undefined> },
  map: (row: Row) => T,
): Promise<T | undefined> {
  const row = await query.executeTakeFirst();
  return row ? map(row) : undefined;
}
