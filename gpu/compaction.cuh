// Block-level survivor compaction: each thread of a block offers at most one survivor; the compactor gives
// every survivor a slot in a global list and bumps that list's counter. Same interface for every strategy,
// in the manner of CUB's block primitives (a TempStorage the caller puts in shared memory):
//
//   __shared__ typename C::TempStorage temp;
//   C::push(temp, survives, record, list, &count);   // every thread of the block calls it (block-wide
//                                                    // ones synchronise); slots are in no particular order
//
//   - GlobalAtomicCompactor: one global atomicAdd per survivor (no synchronisation);
//   - SharedCounterCompactor ("hybrid"): slots from a shared-memory counter, one global atomicAdd per block;
//   - BlockScanCompactor ("prefix sum"): slots from cub::BlockScan over the survive flags, one global
//     atomicAdd per block.
// The shared-memory strategy keeps its lists inside one kernel (gpu/shared_lists.cuh) and has no compactor.
#pragma once

#include <cub/block/block_scan.cuh>

namespace cascade::gpu {

struct GlobalAtomicCompactor {
    struct TempStorage {};
    template <class Record>
    __device__ __forceinline__ static void push(TempStorage&, bool survives, const Record& r, Record* list, int* count) {
        if (survives) list[atomicAdd(count, 1)] = r;
    }
};

struct SharedCounterCompactor {
    struct TempStorage {
        int count;
        int base;
    };
    template <class Record>
    __device__ __forceinline__ static void push(TempStorage& t, bool survives, const Record& r, Record* list, int* count) {
        if (threadIdx.x == 0) t.count = 0;
        __syncthreads();
        const int slot = survives ? atomicAdd(&t.count, 1) : 0;
        __syncthreads();
        if (threadIdx.x == 0) t.base = t.count > 0 ? atomicAdd(count, t.count) : 0;
        __syncthreads();
        if (survives) list[t.base + slot] = r;
        __syncthreads();  // t is reused by the next push
    }
};

template <int BlockThreads>
struct BlockScanCompactor {
    using Scan = cub::BlockScan<int, BlockThreads>;
    struct TempStorage {
        typename Scan::TempStorage scan;
        int base;
    };
    template <class Record>
    __device__ __forceinline__ static void push(TempStorage& t, bool survives, const Record& r, Record* list, int* count) {
        int slot = 0, total = 0;
        Scan(t.scan).ExclusiveSum(survives ? 1 : 0, slot, total);
        if (threadIdx.x == 0) t.base = total > 0 ? atomicAdd(count, total) : 0;
        __syncthreads();
        if (survives) list[t.base + slot] = r;
        __syncthreads();  // t is reused by the next push
    }
};

}  // namespace cascade::gpu
