"""numba functions that compile to one LLVM instruction, shared by every kernel that needs them.

- ``popcount(x)``: the number of set bits of an integer (``ctpop``: one POPCNT);
- ``lowest_bit_index(x)``: the index of the lowest set bit (``cttz``); 64 for zero;
- ``cycle_counter()``: the CPU's time-stamp counter, a clock in ticks for kernels that time
  their own items;
- ``prefetch(array, index)``: a hint to load ``array[index]``'s cache line (``llvm.prefetch``);
  it never faults, so ``index`` may be anything within the array's bounds or near them.

The integer functions take any integer type (cast to uint64: the bits are the same) and return
int64. They are intrinsics, so they are callable from numba code only, and their code is
compiled into each caller: a module whose cached kernels use them lists this file in its
``JIT_SOURCES`` (see ``searches.support.numba_cache``).
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

#: The files the code compiled from this module comes from (see ``numba_cache``).
JIT_SOURCES = (__file__,)


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an integer (LLVM ``ctpop``: one POPCNT instruction)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        value = context.cast(builder, args[0], signature.args[0], types.uint64)
        return context.cast(builder, builder.ctpop(value), types.uint64, types.int64)

    return types.int64(x), codegen


@intrinsic
def lowest_bit_index(typingctx, x):
    """Index of the lowest set bit (LLVM ``cttz``); 64 for zero."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        value = context.cast(builder, args[0], signature.args[0], types.uint64)
        zero_is_poison = ir.Constant(ir.IntType(1), 0)
        index = builder.cttz(value, zero_is_poison)
        return context.cast(builder, index, types.uint64, types.int64)

    return types.int64(x), codegen


@intrinsic
def prefetch(typingctx, array, index):
    """Hint the CPU to load ``array[index]``'s cache line (LLVM ``prefetch``; never faults, so
    ``index`` may be anything within the array's bounds or near them)."""
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, signature, args):
        arrty, idxty = signature.args
        ary = context.make_array(arrty)(context, builder, args[0])
        idx = context.cast(builder, args[1], idxty, types.intp)
        ptr = cgutils.get_item_pointer(context, builder, arrty, ary, [idx], wraparound=False)
        byte_ptr = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
        # read, keep in all cache levels, data cache
        builder.call(fn, [builder.bitcast(ptr, byte_ptr), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.none(array, index), codegen


@intrinsic
def cycle_counter(typingctx):
    """The CPU's cycle (time-stamp) counter (LLVM ``readcyclecounter``: RDTSC on x86, 0 where
    the target has none): a clock numba code can read, in ticks. Convert ticks to seconds by
    timing the same stretch with ``time.perf_counter`` outside the kernel."""
    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.readcyclecounter")
        return builder.call(fn, [])

    return types.int64(), codegen
