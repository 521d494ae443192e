// RUN: tcc-opt %s --tcc-flatten-elementwise | FileCheck %s

// An elementwise op on contiguous buffers (here in place) loops once over
// all 2*3*4 elements of collapsed views, its body unchanged.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @silu
// CHECK: %[[IN:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1, 2]] : memref<2x3x4xf32> into memref<24xf32>
// CHECK: %[[OUT:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1, 2]] : memref<2x3x4xf32> into memref<24xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel"]} ins(%[[IN]] : memref<24xf32>) outs(%[[OUT]] : memref<24xf32>)
// CHECK: math.exp
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @silu(%x: memref<2x3x4xf32>) {
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<2x3x4xf32>) outs(%x : memref<2x3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    %e = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %in, %d : f32
    linalg.yield %s : f32
  }
  return
}

// A broadcast, a strided view, a reduction and an op reading its indices
// are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: collapse_shape
// CHECK-COUNT-4: linalg.generic {indexing_maps = [#{{.*}}], iterator_types = ["parallel", "{{parallel|reduction}}"]}
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#first = affine_map<(d0, d1) -> (d0)>
func.func @left_alone(%a: memref<4x8xf32>, %b: memref<8xf32>, %s: memref<4x8xf32, strided<[16, 1]>>, %r: memref<4xf32>, %i: memref<4x8xindex>) {
  linalg.generic {indexing_maps = [#row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<8xf32>) outs(%a : memref<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : memref<4x8xf32, strided<[16, 1]>>) outs(%a : memref<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id2, #first], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<4x8xf32>) outs(%r : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%i : memref<4x8xindex>) {
  ^bb0(%out: index):
    %0 = linalg.index 1 : index
    linalg.yield %0 : index
  }
  return
}
