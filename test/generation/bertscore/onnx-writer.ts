/**
 * A minimal ONNX `ModelProto` writer for tests: hand-written protobuf encoding (varints and
 * length-delimited fields) of the few onnx.proto messages a small graph needs. Field numbers
 * from onnx/onnx.proto (ONNX 1.x):
 *
 * - ModelProto: ir_version 1, producer_name 2, graph 7, opset_import 8
 * - OperatorSetIdProto: domain 1, version 2
 * - GraphProto: node 1, name 2, initializer 5, input 11, output 12
 * - NodeProto: input 1, output 2, name 3, op_type 4, attribute 5
 * - AttributeProto: name 1, f 2, i 3, t 5, ints 8, type 20 (FLOAT 1, INT 2, TENSOR 4, INTS 7)
 * - TensorProto: dims 1, data_type 2 (FLOAT 1, INT64 7), name 8, raw_data 9 (little-endian)
 * - ValueInfoProto: name 1, type 2; TypeProto: tensor_type 1; TypeProto.Tensor: elem_type 1,
 *   shape 2; TensorShapeProto: dim 1; Dimension: dim_value 1, dim_param 2
 *
 * Repeated scalars are written unpacked (one key per element), which every parser accepts.
 */

const enc = new TextEncoder()

function varint(value: number | bigint): number[] {
  // int64 fields: negative values are their 64-bit two's complement (10 bytes).
  let v = BigInt.asUintN(64, BigInt(value))
  const out: number[] = []
  do {
    let b = Number(v & 0x7fn)
    v >>= 7n
    if (v !== 0n) b |= 0x80
    out.push(b)
  } while (v !== 0n)
  return out
}

/** A protobuf message under construction. */
class Message {
  private readonly parts: number[] = []
  int(field: number, value: number | bigint): this {
    this.parts.push(...varint((field << 3) | 0), ...varint(value))
    return this
  }
  float(field: number, value: number): this {
    const b = new Uint8Array(4)
    new DataView(b.buffer).setFloat32(0, value, true)
    this.parts.push(...varint((field << 3) | 5), ...b)
    return this
  }
  bytes(field: number, value: Uint8Array): this {
    this.parts.push(...varint((field << 3) | 2), ...varint(value.length))
    for (const x of value) this.parts.push(x)
    return this
  }
  string(field: number, value: string): this {
    return this.bytes(field, enc.encode(value))
  }
  message(field: number, value: Message): this {
    return this.bytes(field, value.finish())
  }
  finish(): Uint8Array {
    return Uint8Array.from(this.parts)
  }
}

/** ONNX TensorProto.DataType values used here. */
export const FLOAT = 1
export const INT64 = 7

/** An initializer: float32 or int64 data with its shape. */
export interface Initializer {
  readonly name: string
  readonly dims: readonly number[]
  readonly data: Float32Array | BigInt64Array
}

/** A graph node; attribute values: number (INT, or FLOAT when listed in `floats`), number[] (INTS). */
export interface GraphNode {
  readonly op: string
  readonly inputs: readonly string[]
  readonly outputs: readonly string[]
  readonly attrs?: Readonly<Record<string, number | readonly number[]>>
  /** Names of attributes in `attrs` that are FLOAT, not INT. */
  readonly floats?: readonly string[]
}

/** A graph input or output: element type and shape (numbers are fixed, strings symbolic). */
export interface ValueInfo {
  readonly name: string
  readonly elemType: number
  readonly shape: readonly (number | string)[]
}

export interface GraphSpec {
  readonly name: string
  readonly nodes: readonly GraphNode[]
  readonly initializers: readonly Initializer[]
  readonly inputs: readonly ValueInfo[]
  readonly outputs: readonly ValueInfo[]
  readonly opset: number
  readonly irVersion: number
}

function tensor(t: Initializer): Message {
  const m = new Message()
  for (const d of t.dims) m.int(1, d)
  m.int(2, t.data instanceof Float32Array ? FLOAT : INT64)
  m.string(8, t.name)
  // raw_data is little-endian; typed arrays are in platform order, which is little-endian on
  // every platform Node supports for onnxruntime (x64, arm64).
  m.bytes(9, new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength))
  return m
}

function valueInfo(v: ValueInfo): Message {
  const shape = new Message()
  for (const d of v.shape)
    shape.message(1, typeof d === 'number' ? new Message().int(1, d) : new Message().string(2, d))
  const tensorType = new Message().int(1, v.elemType).message(2, shape)
  return new Message().string(1, v.name).message(2, new Message().message(1, tensorType))
}

function node(n: GraphNode, index: number): Message {
  const m = new Message()
  for (const i of n.inputs) m.string(1, i)
  for (const o of n.outputs) m.string(2, o)
  m.string(3, `${n.op}_${index}`)
  m.string(4, n.op)
  for (const [name, value] of Object.entries(n.attrs ?? {})) {
    const a = new Message().string(1, name)
    if (typeof value === 'number') {
      if (n.floats?.includes(name)) a.float(2, value).int(20, 1)
      else a.int(3, value).int(20, 2)
    } else {
      for (const x of value) a.int(8, x)
      a.int(20, 7)
    }
    m.message(5, a)
  }
  return m
}

/** Serialises a model to ONNX protobuf bytes. */
export function encodeModel(spec: GraphSpec): Uint8Array {
  const graph = new Message()
  spec.nodes.forEach((n, i) => graph.message(1, node(n, i)))
  graph.string(2, spec.name)
  for (const t of spec.initializers) graph.message(5, tensor(t))
  for (const v of spec.inputs) graph.message(11, valueInfo(v))
  for (const v of spec.outputs) graph.message(12, valueInfo(v))
  return new Message()
    .int(1, spec.irVersion)
    .string(2, 'trecscore-test')
    .message(7, graph)
    .message(8, new Message().string(1, '').int(2, spec.opset))
    .finish()
}
