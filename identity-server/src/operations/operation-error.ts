/** A refusal the operations commands print as it is (no stack): the operator's next step. */
export class OperationError extends Error {}
