package produce

// Sizes of Kafka's record format v2 (DefaultRecord, DefaultRecordBatch),
// uncompressed. Batches fill by these bytes, and the built-in partitioner
// counts them, so kviz computes them as Kafka does.

// batchOverhead is DefaultRecordBatch.RECORD_BATCH_OVERHEAD.
const batchOverhead = 61

// maxRecordOverhead is DefaultRecord.MAX_RECORD_OVERHEAD.
const maxRecordOverhead = 21

// varintSize is ByteUtils.sizeOfVarint: zig-zag, 7 bits a byte.
func varintSize(v int32) int {
	u := uint32(v<<1) ^ uint32(v>>31)
	n := 1
	for u >= 0x80 {
		u >>= 7
		n++
	}
	return n
}

// varlongSize is ByteUtils.sizeOfVarlong.
func varlongSize(v int64) int {
	u := uint64(v<<1) ^ uint64(v>>63)
	n := 1
	for u >= 0x80 {
		u >>= 7
		n++
	}
	return n
}

// keyValueSize is DefaultRecord.sizeOf without headers (-1 = null).
func keyValueSize(keyLen, valueLen int) int {
	size := varintSize(int32(keyLen)) + max(keyLen, 0)
	size += varintSize(int32(valueLen)) + max(valueLen, 0)
	return size + varintSize(0) // no headers
}

// recordSize is DefaultRecord.sizeInBytes for one record in a batch.
func recordSize(offsetDelta int, timestampDelta int64, keyLen, valueLen int) int {
	body := 1 + varintSize(int32(offsetDelta)) + varlongSize(timestampDelta) + keyValueSize(keyLen, valueLen)
	return body + varintSize(int32(body))
}

// bufferSize is the size RecordAccumulator allocates for a new batch, which
// becomes the batch's write limit: batch.size, or more for a bigger record.
func bufferSize(batchSize, keyLen, valueLen int) int {
	return max(batchSize, batchOverhead+maxRecordOverhead+keyValueSize(keyLen, valueLen))
}
